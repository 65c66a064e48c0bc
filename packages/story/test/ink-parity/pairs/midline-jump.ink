He turned away -> door
== door ==
and left.
* [Wait] You wait -> porch
* [Leave] You leave -> END
== porch ==
on the porch.
-> END
