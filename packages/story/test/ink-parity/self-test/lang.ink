Hello.
-> END
