"""The Telegram adapter (python-telegram-bot 22): ``adapter.TelegramAdapter`` and the pieces it is made of.

Nothing is imported here: the command line reads ``webhook`` before it loads python-telegram-bot.
"""
