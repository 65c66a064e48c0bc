-> door
== door ==
{You knock.|You knock again.|You hammer on the door.}
+ [Knock] -> door
+ [Leave] -> END
