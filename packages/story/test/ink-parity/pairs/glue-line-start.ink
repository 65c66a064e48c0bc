The door creaked
<> open.
The hall was dark
<>, and cold.
One
<>
two.
-> END
