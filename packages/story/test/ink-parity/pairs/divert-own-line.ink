Start.
-> middle
== end_part ==
The end.
-> END
== middle ==
Middle.
-> end_part
