You see <>
~ who("Mira")
<> by the gate.
-> END
=== function who(n) ===
{n}, waving,
