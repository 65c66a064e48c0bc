X -> k1
== k1 ==
<>Y.
Z<> -> k2
== k2 ==
W.
-> END
