You wait <>
* -> later
== later ==
for a long time.
-> END
