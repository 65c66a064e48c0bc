The watchman stops you.
-> check ->
He waves you through.
-> END
== check ==
He reads your papers slowly.
* [Wait]
  He frowns.
* [Cough]
- ->->
