-> yard
== yard ==
You wait. {!A dog barks.|The dog growls.}
+ [Wait] -> yard
+ [Leave] -> END
