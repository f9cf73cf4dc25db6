# Analysis for HexGui: vc-get-mustplay, compute-fillin, compute-inferior (replies of type
# `inferior`: a cell and its mark), zermelo-edge-connections (type `vc`).

10 boardsize 4
#? []

11 play b b2
#? []

12 play w c3
#? []

# Black's b2 and White's c3 leave each a captured pair (b1 c1 for Black, ...); the marks are
# fcb/fcw (captured by Black/White), fpb/fpw (permanently inferior), fd (dead), x (pruned).
20 compute-fillin w
#? [[a-d][1-4] f[cp][bw]( [a-d][1-4] f[cp][bw])*]

21 compute-inferior w
#? [[a-d][1-4] (f[cp][bw]|fd|x)( [a-d][1-4] (f[cp][bw]|fd|x))*]

22 vc-get-mustplay w
#? [[a-d][1-4] (f[cp][bw]|x)( [a-d][1-4] (f[cp][bw]|x))*]

23 zermelo-edge-connections w
#? [(white west east (full or|semi and) \[( [a-d][1-4])* \] \[ \]( [a-d][1-4])?\n?)+(black north south (full or|semi and) \[( [a-d][1-4])* \] \[ \]( [a-d][1-4])?\n?)*]

30 boardsize 3
#? []

31 play b b2
#? []

# Black's b2 on 3x3 is connected to both edges by fill-in alone: a full connection with an
# empty carrier, and no must-play region left to White.
32 zermelo-edge-connections w
#? [black north south full or \[ \] \[ \]]

33 vc-get-mustplay w
#? [([a-c][1-3] f[cp][bw] ?)*]

34 play w a1
#? []

35 play w b1
#? []

36 play w c1
#? []

37 compute-inferior b
#? [the game is over: white has connected]*

40 param_game misere 1
#? []

41 vc-get-mustplay b
#? [the must-play region is a notion of normal play]*

42 compute-inferior w
#? [the game is over: white has connected]*
