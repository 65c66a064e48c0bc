VAR x = 2
Before.
{ x > 1:
  * [Wave]
    You wave.
    -> after
  * [Sit]
    -> after
}
* [Leave]
  You leave.
- (after) After.
-> END
