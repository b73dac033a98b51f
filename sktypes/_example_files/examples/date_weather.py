"""The ADR's two plugins as Python: a date function whose output feeds a weather function.

``DatePluginSimpleComplex.GetDate1`` returns an object holding the date;
``WeatherPluginSimpleComplex.GetWeatherForecast1`` takes that date (a string) and
returns the forecast. A planner that reads the functions manual sees both schemas, so
it can wire ``GetDate1(1).date`` into ``GetWeatherForecast1``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import BaseModel, Field

from sktypes import kernel_function

__all__ = [
    "DatePluginSimpleComplex",
    "DateResponse",
    "WeatherForecast",
    "WeatherPluginSimpleComplex",
]


class DateResponse(BaseModel):
    """The date."""

    date: str = Field(description="The date, as YYYY-MM-DD.")


class WeatherForecast(BaseModel):
    """The forecasted temperature in Fahrenheit."""

    degreesFahrenheit: int


class DatePluginSimpleComplex:
    """Dates relative to today."""

    def __init__(self, today: dt.date | None = None) -> None:
        self._today = today

    @kernel_function
    def GetDate1(
        self,
        numDays: Annotated[
            int,
            "The number of days to offset the date by from today. "
            "Positive for future, negative for past.",
        ],
    ) -> DateResponse:
        """Gets the date with the current date offset by the specified number of days.

        Returns:
            Successful response.
        """
        today = self._today or dt.date.today()
        return DateResponse(date=(today + dt.timedelta(days=numDays)).isoformat())


class WeatherPluginSimpleComplex:
    """A deterministic stand-in for a weather service."""

    @kernel_function
    def GetWeatherForecast1(
        self, date: Annotated[str, "The date for the forecast"]
    ) -> WeatherForecast:
        """Gets the weather forecast for the specified date and the current location, and time.

        Returns:
            Successful response.
        """
        day = dt.date.fromisoformat(date)
        return WeatherForecast(degreesFahrenheit=50 + (day.toordinal() % 30))
