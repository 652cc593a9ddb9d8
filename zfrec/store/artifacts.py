"""Rendered output kept in the store: replay pages, charts, site pages, keyed by what made them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col
from sqlmodel import select as sm_select

from zfrec.store.db import StoreError
from zfrec.store.models import ARTIFACT_KINDS, Artifact, utc_now


def _artifact_query(game_id: int | None, hand_number: int | None, kind: str, name: str) -> Any:
    return sm_select(Artifact).where(
        col(Artifact.game_id).is_(None) if game_id is None else col(Artifact.game_id) == game_id,
        col(Artifact.hand_number).is_(None)
        if hand_number is None
        else col(Artifact.hand_number) == hand_number,
        col(Artifact.kind) == kind,
        col(Artifact.name) == name,
    )


def put_artifact(
    session: Session,
    *,
    game_id: int | None,
    hand_number: int | None,
    kind: str,
    name: str,
    content: bytes,
    mime: str,
    source_hash: str,
) -> Artifact:
    """Store rendered output, replacing what was stored under the same (game, hand, kind, name).

    Flushed, not committed: the caller's session decides.
    """
    if kind not in ARTIFACT_KINDS:
        raise StoreError(f"unknown artifact kind {kind!r}: use {', '.join(ARTIFACT_KINDS)}")
    query = _artifact_query(game_id, hand_number, kind, name)
    for attempt in (1, 2):
        found: Artifact | None = session.exec(query).first()
        if found is not None:
            found.content, found.mime, found.source_hash = content, mime, source_hash
            found.created_at = utc_now()
            session.add(found)
            session.flush()
            return found
        made = Artifact(
            game_id=game_id,
            hand_number=hand_number,
            kind=kind,
            name=name,
            content=content,
            mime=mime,
            source_hash=source_hash,
        )
        try:
            with session.begin_nested():  # another writer may add the same key meanwhile
                session.add(made)
            return made
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def get_artifact(
    session: Session,
    *,
    game_id: int | None,
    hand_number: int | None,
    kind: str,
    name: str,
    source_hash: str | None = None,
) -> Artifact | None:
    """The stored artifact, or None if there is none or it was made from another source."""
    found: Artifact | None = session.exec(_artifact_query(game_id, hand_number, kind, name)).first()
    if found is None or (source_hash is not None and found.source_hash != source_hash):
        return None
    return found


def list_artifacts(
    session: Session, *, game_id: int | None = None, kind: str | None = None
) -> list[Artifact]:
    """Stored artifacts, optionally of one game and/or one kind, oldest first."""
    query = sm_select(Artifact).order_by(col(Artifact.id))
    if game_id is not None:
        query = query.where(col(Artifact.game_id) == game_id)
    if kind is not None:
        query = query.where(col(Artifact.kind) == kind)
    return list(session.exec(query).all())


def current_artifacts(session: Session, *, game_id: int, source_hash: str) -> list[Artifact] | None:
    """A game's artifacts if every one of them was made from `source_hash`, else None.

    Only the keys are read first, so a stale game costs no transfer of its stored bytes.
    """
    hashes = session.exec(
        sm_select(Artifact.source_hash).where(col(Artifact.game_id) == game_id)
    ).all()
    if not hashes or any(h != source_hash for h in hashes):
        return None
    return list_artifacts(session, game_id=game_id)


def replace_artifacts(
    session: Session,
    *,
    game_id: int,
    artifacts: Iterable[tuple[int | None, str, str, bytes, str]],
    source_hash: str,
) -> int:
    """Replace every artifact of a game by `artifacts` (hand, kind, name, content, mime), all
    made from `source_hash`: one delete and one bulk insert. Flushed, not committed."""
    rows = []
    for hand_number, kind, name, content, mime in artifacts:
        if kind not in ARTIFACT_KINDS:
            raise StoreError(f"unknown artifact kind {kind!r}: use {', '.join(ARTIFACT_KINDS)}")
        rows.append(
            {
                "game_id": game_id,
                "hand_number": hand_number,
                "kind": kind,
                "name": name,
                "content": content,
                "mime": mime,
                "source_hash": source_hash,
                "created_at": utc_now(),
            }
        )
    session.execute(delete(Artifact).where(col(Artifact.game_id) == game_id))
    if rows:
        session.execute(insert(Artifact), rows)
    session.flush()
    return len(rows)
