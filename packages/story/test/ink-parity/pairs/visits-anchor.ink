- (pump) You work the pump ({pump}).
+ [Again] -> pump
+ [Stop]
- Pumped {pump} times.
-> END
