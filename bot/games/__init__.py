"""The kinds of game and their commands: the kinds' registry (``kinds``), the commands every kind shares
(``common``), and one package per kind (``classic``, ``duplicate``, ``simultane``, ``series``, ``sheet``),
each with its commands, its ``Kind``, its clock, its texts and views. ``installed`` imports them all.

Its packages import nothing here (a module of one kind imports another's by its own name, never its
package's), so that importing one module of a kind never imports every kind.
"""
