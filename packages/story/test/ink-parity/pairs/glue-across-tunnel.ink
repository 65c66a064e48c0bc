We walked <>
-> bridge ->
<> and home.
-> END
== bridge ==
over the bridge<>
->->
