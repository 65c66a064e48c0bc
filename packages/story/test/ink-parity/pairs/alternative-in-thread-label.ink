-> square
== square ==
<- gossip
-> DONE
== gossip ==
+ [{&Listen|Listen more}] -> square
* [Leave] -> END
