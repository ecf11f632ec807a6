"""Application settings. Copy into the project as config/settings.py."""
import os
from dataclasses import dataclass

from dotenv import load_dotenv

load_dotenv()  # reads ./.env of this project, if present


@dataclass(frozen=True)
class Settings:
    database_url: str
    debug: bool
    port: int


def load() -> Settings:
    url = os.environ.get("DATABASE_URL")
    if not url:
        raise RuntimeError("DATABASE_URL is not set (see .env.example)")
    return Settings(
        database_url=url,
        debug=os.environ.get("DEBUG", "0") == "1",
        port=int(os.environ.get("PORT", "8000")),
    )
