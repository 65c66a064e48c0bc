-> train
== train ==
The train rattles.
-> carriage
= carriage
A quiet carriage.
* [Go to the dining car] -> dining
* [Stay] -> sleep
= dining
The dining car smells of coffee.
-> sleep
= sleep
You doze off.
-> station
== station ==
The station, at last.
{train.dining: You had coffee.|You had nothing.}
-> END
