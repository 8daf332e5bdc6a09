"""Classic played in the chat: the referee holds the bag and deals each rack in private (``core.online``),
a seat may be the computer's (``core.online_robot``), and a game may run over days with reminders."""
