# The board: boardsize, clear_board, play (colours b, w, black, white; swap-pieces), undo,
# showboard, loadsgf with and without a move number, all_legal_moves, final_score.

10 boardsize 3 3
#? []

11 showboard
#? [a b c\n +1 +\. \. \.\n +2 +\. \. \.\n +3 +\. \. \.]

20 play b b2
#? []

21 play white a3
#? []

22 play BLACK c1
#? []

23 showboard
#? [a b c\n +1 +\. \. B\n +2 +\. B \.\n +3 +W \. \.]

30 undo
#? []

31 undo
#? []

32 showboard
#? [a b c\n +1 +\. \. \.\n +2 +\. B \.\n +3 +\. \. \.]

33 all_legal_moves w
#? [a1 b1 c1 a2 c2 a3 b3 c3]

40 clear_board
#? []

41 play w a1
#? []

42 play w a2
#? []

43 play b b1
#? []

44 final_score
#? [cannot score]

45 play b b2
#? []

46 play b b3
#? []

47 final_score
#? [B\+]

48 all_legal_moves b
#? []

49 all_legal_moves w
#? []

60 boardsize 5
#? []

61 play b b4
#? []

62 play w swap-pieces
#? []

63 showboard
#? [.*\n +2 +\. \. \. W \.\n.*]

64 undo
#? []

65 showboard
#? [.*\n +4 +\. B \. \. \.\n.*]

70 loadsgf game.sgf
#? []

71 showboard
#? [a b c d\n +1 +\. \. B \.\n +2 +\. W \. \.\n +3 +\. \. \. \.\n +4 +W \. B \.]

72 loadsgf game.sgf 1
#? []

73 showboard
#? [a b c d\n +1 +\. \. B \.\n +2 +\. W \. \.\n +3 +\. \. \. \.\n +4 +\. \. B \.]

74 play w d4
#? []

75 undo
#? []

76 undo
#? [there is no move to undo]*

77 clear_board
#? []

78 showboard
#? [a b c d\n +1 +\. \. \. \.\n +2 +\. \. \. \.\n +3 +\. \. \. \.\n +4 +\. \. \. \.]
