-> hub
== talk ==
* [Hi]
  Hello.
  -> hub
== hub ==
<- talk
<- look
-> DONE
== look ==
The room is dark.
-> DONE
