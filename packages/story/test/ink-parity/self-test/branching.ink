-> hub
== hub ==
At the hub.
+ [A] -> hub
+ [B] -> hub
+ [C] -> hub
