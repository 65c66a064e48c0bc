You ask <>
-> talk ->
<> and nod.
-> END
== talk ==
about the road
* [Listen]
  <>, which is long,
- ->->
