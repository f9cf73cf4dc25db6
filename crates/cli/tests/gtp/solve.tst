# Solving: dfpn-solve-state, dfpn-solver-find-winning, dfpn-clear-tt, param_dfpn, genmove,
# reg_genmove, param_game. The answers are checked again, position by position, against the
# retrograde tables by the test that runs this script.

10 param_dfpn threads 1
#? []

11 param_dfpn tt_size 16
#? []

12 param_dfpn timelimit 30
#? []

13 param_dfpn
#? [\[string\] threads 1\n\[string\] timelimit 30\n\[string\] tt_size 16]

20 boardsize 3 3
#? []

21 dfpn-solve-state black
#? [black]

22 dfpn-solver-find-winning b
#? [c1 a2 b2 c2 a3]

23 play b a1
#? []

24 dfpn-solve-state w
#? [white]

25 dfpn-solve-state
#? [white]

26 dfpn-solver-find-winning w
#? [b2]

27 dfpn-clear-tt
#? []

28 dfpn-solve-state b
#? [black]

30 boardsize 4 4
#? []

31 play b a1
#? []

32 dfpn-solver-find-winning white
#? [c2 b3 a4]

33 genmove w
#? [c2|b3|a4]

34 undo
#? []

35 undo
#? []

36 play b b3
#? []

37 dfpn-solver-find-winning w
#? []

38 reg_genmove w
#? [[a-d][1-4]]

39 dfpn-solve-state w
#? [black]

40 play w a1
#? []

41 play w b1
#? []

42 play w c1
#? []

43 play w d1
#? []

44 play w a2
#? []

45 play w b2
#? []

46 play w c2
#? []

47 play w d2
#? []

48 dfpn-solve-state b
#? [white]

49 genmove b
#? [resign]

490 dfpn-solver-find-winning w
#? [a3 c3 d3 a4 b4 c4 d4]

50 param_game misere 1
#? []

51 param_game
#? [\[bool\] misere 1]

52 boardsize 2
#? []

53 dfpn-solve-state b
#? [black]

54 dfpn-solver-find-winning w
#? [a1 b2]

55 play b a1
#? []

56 play b a2
#? []

57 dfpn-solve-state w
#? [white]

58 final_score
#? [W\+]

59 genmove w
#? [resign]

60 param_game misere 0
#? []

61 final_score
#? [B\+]
