"""The phone page (WESPA 3.11.1(b)): one aiohttp server, plain HTML/CSS/JS, the station behind."""
