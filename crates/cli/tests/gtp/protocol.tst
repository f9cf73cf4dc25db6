# The protocol commands of `zermelo gtp`. Format of GoGui's regress tool: a numbered command,
# then `#? [REGEX]`, the reply it must give (the whole reply, matched as a regular expression);
# `#? [REGEX]*` marks a command expected to fail, whose error message must match.

10 protocol_version
#? [2]

20 name
#? [zermelo]

30 version
#? [\d+\.\d+\.\d+]

40 known_command dfpn-solve-state
#? [true]

41 known_command genmove
#? [true]

42 known_command frobnicate
#? [false]

50 list_commands
#? [protocol_version\nname\nversion\n.*\ndfpn-solve-state\n.*gogui-interrupt]

60 gogui-interrupt
#? []

70 hexgui-analyze_commands
#? [param/Dfpn Param/param_dfpn\n.*plist/Dfpn Find Winning/dfpn-solver-find-winning %m\n.*]
