"""The gettext catalogs (`.po` sources, read directly by `core.i18n`), shipped as package data."""
