\*Not italic*, [not a link], \{not a command\}, C:\\temp, room \#4 and a \| bar.
A \-\> arrow and a \/\/ slash pair.
-> END
