-> road
== road ==
-> weather ->
+ [Walk on] -> road
+ [Stop] -> END
== weather ==
{&Rain.|Sun.|Wind.}
->->
