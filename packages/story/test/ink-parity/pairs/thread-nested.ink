-> square
== square ==
<- a
-> DONE
== a ==
<- b
* [From a] -> END
== b ==
* [From b] -> END
