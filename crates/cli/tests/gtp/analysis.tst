# Analysis for HexGui: vc-get-mustplay, compute-fillin, compute-inferior (replies of type
# `inferior`: a cell and its mark), zermelo-edge-connections, vc-between-cells-full and
# vc-between-cells-semi (type `vc`).

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

# vc-between-cells-full and vc-between-cells-semi (type vc): the connections the engine keeps
# between two points of a player's after fill-in. White's c3 has two semis to the west edge;
# fill-in joins it to the east edge (d2 and d3 are White's).
24 vc-between-cells-semi w c3 west
#? [white c3 west semi and \[ a3 b3 a4 \] \[ \] b3\nwhite c3 west semi and \[ b3 a4 b4 \] \[ \] a4]

25 vc-between-cells-semi b b2 south
#? [black b2 south semi and \[ a3 b3 a4 \] \[ \] a4\nblack b2 south semi and \[ b3 a4 b4 \] \[ \] b3]

26 vc-between-cells-full w c3 west
#? []

27 vc-between-cells-full w c3 east
#? [c3 and east are one group of white's, or fill-in gives one of them to black]*

28 vc-between-cells-full w north c3
#? [north is black's edge, not white's]*

29 vc-between-cells-semi w b2 c3
#? [b2 is a black stone]*

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

# Fill-in joins Black's edges through b2: they are one point, with no list between them.
38 vc-between-cells-full b north south
#? [north and south are one group of black's, or fill-in gives one of them to white]*

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
