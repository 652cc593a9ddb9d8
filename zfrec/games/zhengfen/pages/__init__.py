"""Zheng Fen's pages (RENDER.md), on the generic rendering of zfrec.render (the Jinja2
environment, the chart engine, the files and the site):

    views      the view-models of replay and game pages
    html       the builder (one pass over the replay stream) and the page renderers
    charts     the cumulative scores and points per hand
    analysis   the analyser's marks and sections, the audit page
    disputes   the verdicts on disputed moves, marked on the pages
    viewer     the single-file viewer of a hand (viewer.html)
    files      a game's files: `ZhengFenKind.render_files`
"""
