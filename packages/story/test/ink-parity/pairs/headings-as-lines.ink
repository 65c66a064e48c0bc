The Crooked Inn
The fire is almost out.
* [Go upstairs] -> upstairs
* [Stay] -> END
== upstairs ==
Upstairs
A narrow corridor.
-> END
