You enter the shop.
-> shop ->
You leave.
-> END
== shop ==
The shop.
<- own
<- gossip
-> DONE
= own
* [Buy bread]
  Bought.
  ->->
== gossip ==
* [Ask about the mill]
  "Closed."
  ->->
