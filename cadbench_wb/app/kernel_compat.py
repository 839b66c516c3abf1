# SPDX-License-Identifier: LGPL-2.1-or-later
"""What differs between FreeCAD 0.20 and 1.0 in the calls cadbench makes, each found by
looking at the object in hand (never by the version number alone)."""


def attach(obj, support) -> None:
    """Attach a sketch or datum to (object, [sub-elements]): the property is
    `AttachmentSupport` in FreeCAD 1.0 and `Support` before."""
    name = "AttachmentSupport" if "AttachmentSupport" in obj.PropertiesList else "Support"
    setattr(obj, name, support)
