# Fifty malformed or hostile commands: each must be answered with an error (`#? [...]*`: the
# command is expected to fail, with a message matching the pattern), and the engine must go on
# answering (the last command). The test that runs this script adds lines no script can hold:
# binary bytes, ids too large to be ids, a line of a megabyte.

0 boardsize 3
#? []

1 frobnicate
#? [unknown command: frobnicate]*

2 boardsize 12 12
#? [board size 12 is out of range.*]*

3 boardsize 0
#? [board size 0 is out of range.*]*

4 boardsize 7 8
#? [only square boards are supported, not 7x8]*

5 boardsize -3
#? ['-3' is not a board size]*

6 boardsize seven
#? ['seven' is not a board size]*

7 boardsize 99999999999999999999999
#? ['9+' is not a board size]*

8 boardsize 3 3 3
#? [boardsize takes the board size.*]*

9 boardsize
#? [boardsize takes the board size.*]*

10 undo
#? [there is no move to undo]*

11 play b z9
#? ['z9' is not a cell of a 3x3 board.*]*

12 play x a1
#? ['x' is not a colour.*]*

13 play b
#? [play takes a colour and a cell.*]*

14 play b a1 a2
#? [play takes a colour and a cell.*]*

15 play b a0
#? ['a0' is not a cell.*]*

16 play b 1a
#? ['1a' is not a cell.*]*

17 play b aa1
#? ['aa1' is not a cell.*]*

18 play b a99999999999999999999
#? ['a9+' is not a cell.*]*

19 play w swap-pieces
#? [.*the swap is White's reply to Black's first stone.*]*

20 play b a1
#? []

21 play w a1
#? [cell a1 is already occupied]*

22 play b swap-pieces
#? [.*the swap is White's reply.*]*

23 loadsgf /nonexistent/zermelo-no-such-file.sgf
#? [cannot read /nonexistent/zermelo-no-such-file.sgf.*]*

24 loadsgf bad.sgf
#? [bad.sgf: not a valid Hex SGF file.*already occupied]*

25 loadsgf /dev/zero
#? [cannot read /dev/zero: not a regular file]*

26 loadsgf .
#? [cannot read \.: not a regular file]*

27 loadsgf
#? [loadsgf takes a file.*]*

28 loadsgf game.sgf one
#? ['one' is not a move number]*

29 loadsgf game.sgf 1 2
#? [loadsgf takes a file.*]*

30 dfpn-solve-state purple
#? ['purple' is not a colour.*]*

31 dfpn-solve-state b 10 20
#? [dfpn-solve-state takes at most a colour]*

32 dfpn-solver-find-winning
#? [this command takes a colour.*]*

33 param_dfpn threads many
#? ['many' is not a whole number]*

34 param_dfpn threads 5000
#? [threads is 0 \(one per core\) to 1024, not 5000]*

35 param_dfpn timelimit -1
#? [timelimit is a number of seconds, not '-1']*

36 param_dfpn timelimit NaN
#? [timelimit is a number of seconds, not 'NaN']*

37 param_dfpn tt_size 0
#? [tt_size is 1 to \d+ MiB, not 0]*

38 param_dfpn tt_size 99999999999
#? [tt_size is 1 to \d+ MiB, not 99999999999]*

39 param_dfpn frobs 1
#? [unknown parameter: frobs]*

40 param_game misere 2
#? [misere is 0 or 1, not '2']*

41 known_command
#? [known_command takes one command name]*

42 genmove
#? [this command takes a colour.*]*

43 compute-inferior
#? [this command takes a colour.*]*

44 vc-get-mustplay q
#? ['q' is not a colour.*]*

45 zermelo-edge-connections b w
#? [this command takes a colour.*]*

46 showboard extra
#? [this command takes no arguments]*

47 list_commands all
#? [this command takes no arguments]*

48 clear_board now
#? [this command takes no arguments]*

49 undo 3
#? [this command takes no arguments]*

50 dfpn-clear-tt everything
#? [this command takes no arguments]*

51 reg_genmove
#? [this command takes a colour.*]*

52 name
#? [zermelo]
