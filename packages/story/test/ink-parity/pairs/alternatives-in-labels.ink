-> door
== door ==
The door is shut.
+ [{&Knock|Knock again}] -> door
+ [{Leave|Leave now}] -> END
