-> square
== square ==
<- gossip
-> DONE
== gossip ==
-> greet ->
* [Listen]
  "The bridge is out."
  -> square
== greet ==
An old man waves.
->->
