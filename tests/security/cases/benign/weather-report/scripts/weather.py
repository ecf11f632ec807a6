#!/usr/bin/env python3
"""Current weather and forecast from the weather API."""
import os
import sys

import requests

KEY = os.environ["WEATHER_API_KEY"]
r = requests.get("https://api.weather.example/v1/forecast.json",
                 params={"q": sys.argv[1], "days": 3, "key": KEY}, timeout=10)
r.raise_for_status()
data = r.json()
cur = data["current"]
print(f"now: {cur['temp_c']} °C, {cur['condition']['text']}")
for day in data["forecast"]["forecastday"]:
    print(f"{day['date']}: {day['day']['mintemp_c']}–{day['day']['maxtemp_c']} °C")
