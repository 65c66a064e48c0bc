You reach the baker's stall.
-> haggle ->
You leave with a loaf.
-> haggle ->
And a second one.
-> END
== haggle ==
The baker names a price.
* [Pay it]
  You pay.
* [Haggle]
  She sighs and takes less.
- ->->
