We left <>
-> road
== road ==
by the north road.
-> inn
== inn ==
We slept
-> stable
== stable ==
<> in the stable.
-> END
