"""The kinds of game and their commands: the kinds' registry (``kinds``), the commands every kind shares
(``common``), and one package per kind (``classic``, ``duplicate``, ``simultane``, ``series``, ``sheet``),
each with its commands, its ``Kind``, its clock, its texts and views.
"""
