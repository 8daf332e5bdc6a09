"""What the commands and the live pages both read of a simultané's rooms.

``names`` is a room's centre name and the label every ranking, page, file and status shows for it;
``rooms`` what each room has played, as the overall ranking and its visibility rule take it.
"""
