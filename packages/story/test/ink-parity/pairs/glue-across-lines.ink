VAR late = false
The house was <>
// a comment
~ late = true
{ late:
    quiet
}
<>, and dark.
-> END
