VAR open = false
-> square
== square ==
<- gossip
-> DONE
== gossip ==
+ [Knock]
  ~ open = true
  -> square
* {open} [Enter] -> END
* {not open} [Wait] -> square
