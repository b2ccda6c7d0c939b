"""Game facts made into messages and UI: an outcome to its audience, ballots, prompts, team
rooms, muting, recaps, the settings shown, players' names, what never arrived. Above
`messages`."""
