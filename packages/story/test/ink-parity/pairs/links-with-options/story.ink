-> square
== square ==
The square. A path leads to the harbour.
+ [Wait] -> square
* [Buy a map]
  You buy a map.
  -> square
* [harbour] -> harbour
== harbour ==
Gulls cry.
-> END
