"""The pygame user interface of Koi-Koi (screens, widgets, drawing, asset loading)."""
