The road forks: the forest path or the river road.
* [forest path] -> forest.edge
* [river road] -> forest
== forest ==
Trees close in.
-> edge
= edge
Wolves watch you.
-> END
