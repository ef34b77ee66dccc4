"""Screens of the table UI."""
