-> hall
== hall ==
{!Hello.|} Hall.
+ [Again] -> hall
+ [Stop] -> END
