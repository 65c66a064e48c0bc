The gate is open.
* [Run] You run -> out
* [Walk] You walk.
- (out) and reach the road.
-> END
