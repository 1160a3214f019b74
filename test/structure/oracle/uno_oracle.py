#!/usr/bin/python3
"""An independent oracle for the structure engine: LibreOffice's own document model, read through UNO.

Run with Debian's python3 (python3-uno). It starts one headless soffice (its own profile, a pipe of its own),
then answers one JSON request per stdin line with one JSON line on stdout:

  {"op": "inspect", "path": "/abs/file.docx"}  ->  {"ok": true, "docprops": {...}, "trackchanges": [...] | null,
                                                     "slides": {...} | null}
  {"op": "load", "path": "/abs/file.odt"}      ->  {"ok": true} when LibreOffice loads it, else {"ok": false, "error": ...}
  {"op": "quit"}                                ->  soffice is terminated and the script exits

docprops: XDocumentProperties (the names of the spec's DocumentProperties item) and the document statistics.
trackchanges: XRedlinesSupplier.getRedlines() in LibreOffice's order, with type, author, date, comment and the
text of the range. slides: the draw pages with their master page, AutoLayout id, and each shape's paragraphs.
Nothing here reads the package's XML: what LibreOffice made of the document is the answer.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

SOFFICE = os.environ.get("ODE_SOFFICE", "/usr/lib/libreoffice/program/soffice")


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def start_office():
    """Starts a headless soffice (a new profile, a pipe of its own) and connects to it: (process, remote component
    context, desktop, profile folder). RuntimeError when it does not answer within 180 s. stop_office ends it."""
    profile = tempfile.mkdtemp(prefix="ode-uno-oracle-")
    pipe = "ode_uno_oracle_%d" % os.getpid()
    office = subprocess.Popen(
        [SOFFICE, "--headless", "--invisible", "--nologo", "--norestore", "--nodefault", "--nolockcheck",
         "-env:UserInstallation=file://" + profile, "--accept=pipe,name=%s;urp;" % pipe],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    # A fresh profile's first start takes about 6 s on an idle machine and over a minute at CI load.
    deadline = time.time() + 180
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            break
        except NoConnectException:
            if time.time() > deadline or office.poll() is not None:
                raise RuntimeError("soffice did not answer on its pipe")
            time.sleep(0.2)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    return office, ctx, desktop, profile


def load(desktop, path):
    url = uno.systemPathToFileUrl(os.path.abspath(path))
    doc = desktop.loadComponentFromURL(url, "_blank", 0, (prop("Hidden", True), prop("ReadOnly", True), prop("Silent", True)))
    if doc is None:
        raise RuntimeError("loadComponentFromURL returned an empty reference")
    return doc


def iso(dt):
    """css::util::DateTime as the spec's DocumentProperties dates: YYYY-MM-DDTHH:MM:SS, zeros when unset."""
    return "%04d-%02d-%02dT%02d:%02d:%02d" % (dt.Year, dt.Month, dt.Day, dt.Hours, dt.Minutes, dt.Seconds)


def redline_date(dt):
    """utl::toISO8601 as Collabora's GetDocStructureTrackChanges writes it: the time only when not midnight."""
    day = "%04d-%02d-%02d" % (dt.Year, dt.Month, dt.Day)
    if dt.Hours == 0 and dt.Minutes == 0 and dt.Seconds == 0:
        return day
    return day + "T%02d:%02d:%02d" % (dt.Hours, dt.Minutes, dt.Seconds)


def locale(loc):
    if not loc.Language:
        return ""
    return loc.Language + ("-" + loc.Country if loc.Country else "")


def user_value(value):
    """(type, value) of a user-defined property, with the UNO type names the spec uses."""
    if isinstance(value, bool):
        return "boolean", value
    if isinstance(value, int):
        return "long", value
    if isinstance(value, float):
        return "double", value
    if isinstance(value, str):
        return "string", value
    name = getattr(value, "typeName", None) or type(value).__name__
    if hasattr(value, "Year") and hasattr(value, "Hours"):
        return "com.sun.star.util.DateTime", None
    if hasattr(value, "Year"):
        return "com.sun.star.util.Date", None
    if hasattr(value, "Days") and hasattr(value, "Hours"):
        return "com.sun.star.util.Duration", None
    return str(name), None


def docprops(doc):
    dp = doc.getDocumentProperties()
    stats = {}
    for nv in dp.DocumentStatistics:
        stats[nv.Name] = nv.Value
    user = {}
    container = dp.getUserDefinedProperties()
    for p in container.getPropertySetInfo().getProperties():
        t, v = user_value(container.getPropertyValue(p.Name))
        user[p.Name] = {"type": t} if v is None else {"type": t, "value": v}
    return {
        "Author": dp.Author, "Generator": dp.Generator, "Title": dp.Title, "Subject": dp.Subject,
        "Description": dp.Description, "Language": locale(dp.Language), "ModifiedBy": dp.ModifiedBy,
        "PrintedBy": dp.PrintedBy, "TemplateName": dp.TemplateName, "TemplateURL": dp.TemplateURL,
        "AutoloadURL": dp.AutoloadURL, "DefaultTarget": dp.DefaultTarget,
        "CreationDate": iso(dp.CreationDate), "ModificationDate": iso(dp.ModificationDate),
        "PrintDate": iso(dp.PrintDate), "TemplateDate": iso(dp.TemplateDate),
        "AutoloadSecs": dp.AutoloadSecs, "EditingCycles": dp.EditingCycles, "EditingDuration": dp.EditingDuration,
        "Keywords": list(dp.Keywords), "DocumentStatistics": stats, "UserDefinedProperties": user,
    }


def range_text(start, end):
    try:
        cursor = start.getText().createTextCursorByRange(start)
        cursor.gotoRange(end, True)
        return cursor.getString()
    except Exception:
        return None


def trackchanges(doc):
    if not hasattr(doc, "getRedlines"):
        return None
    out = []
    en = doc.getRedlines().createEnumeration()
    while en.hasMoreElements():
        r = en.nextElement()
        out.append({
            "type": r.getPropertyValue("RedlineType"),
            "author": r.getPropertyValue("RedlineAuthor"),
            "dateTime": redline_date(r.getPropertyValue("RedlineDateTime")),
            "comment": r.getPropertyValue("RedlineComment"),
            "textChanged": range_text(r.getPropertyValue("RedlineStart"), r.getPropertyValue("RedlineEnd")),
        })
    return out


# SwContentControl's kind flags (LibreOffice 25.2 has no single type property), in the order SwContentControl
# decides its type; none set is rich text.
CONTROL_KINDS = (("Checkbox", "checkbox"), ("ComboBox", "combo-box"), ("DropDown", "drop-down-list"),
                 ("Picture", "picture"), ("Date", "date"), ("PlainText", "plain-text"))


def contentcontrols(doc):
    """The text document's content controls in LibreOffice's own order (XTextDocument getContentControls)."""
    if not doc.supportsService("com.sun.star.text.TextDocument"):
        return None
    controls = doc.getContentControls()
    out = []
    for i in range(controls.getCount()):
        c = controls.getByIndex(i)
        item = {"id": c.getPropertyValue("Id"), "tag": c.getPropertyValue("Tag"), "alias": c.getPropertyValue("Alias")}
        item["content"] = "" if c.getPropertyValue("ShowingPlaceHolder") else c.getString()
        kind = next((name for flag, name in CONTROL_KINDS if c.getPropertyValue(flag)), "rich-text")
        item["type"] = kind
        if kind == "checkbox":
            item["Checked"] = "true" if c.getPropertyValue("Checked") else "false"
        if kind == "date":
            item["DateFormat"] = c.getPropertyValue("DateFormat")
            item["DateLanguage"] = c.getPropertyValue("DateLanguage")
            item["CurrentDate"] = c.getPropertyValue("CurrentDate")
        out.append(item)
    return out


def title_text(titled):
    title = titled.getTitleObject() if titled is not None else None
    if title is None:
        return None
    return "".join(fs.getString() for fs in title.getText())


def charts(doc):
    """Charts among the embedded objects, keyed by the object's index, as LibreOffice's chart model holds them."""
    if not hasattr(doc, "getEmbeddedObjects"):
        return None
    objects = doc.getEmbeddedObjects()
    out = {}
    for i in range(objects.getCount()):
        obj = objects.getByIndex(i)
        try:
            model = obj.getPropertyValue("Model")
        except Exception:
            continue
        if model is None or not model.supportsService("com.sun.star.chart2.ChartDocument"):
            continue
        provider = model.getDataProvider()
        diagram = model.getFirstDiagram()
        if provider is None or diagram is None or not hasattr(provider, "getData"):
            continue
        item = {"name": obj.getName()}
        title = title_text(model)
        if title is not None:
            item["title"] = title
        subtitle = title_text(diagram)
        if subtitle is not None:
            item["subtitle"] = subtitle
        item["RowDescriptions"] = list(provider.getRowDescriptions())
        item["ColumnDescriptions"] = list(provider.getColumnDescriptions())
        item["DataValues"] = [[repr(v) for v in row] for row in provider.getData()]
        out[str(i)] = item
    return out


def paragraphs(text):
    out = []
    en = text.createEnumeration()
    while en.hasMoreElements():
        out.append(en.nextElement().getString())
    return out


def slides(doc):
    if not doc.supportsService("com.sun.star.presentation.PresentationDocument"):
        return None
    masters = doc.getMasterPages()
    pages = doc.getDrawPages()
    out = {"SlideCount": pages.getCount(), "MasterSlides": [masters.getByIndex(i).Name for i in range(masters.getCount())], "Slides": []}
    for i in range(pages.getCount()):
        page = pages.getByIndex(i)
        objects = []
        for j in range(page.getCount()):
            shape = page.getByIndex(j)
            objects.append(paragraphs(shape.getText()) if hasattr(shape, "getText") and hasattr(shape, "createEnumeration") else None)
        out["Slides"].append({"SlideName": page.Name, "MasterSlideName": page.MasterPage.Name,
                              "LayoutId": page.getPropertyValue("Layout"), "Objects": objects})
    return out


def answer_for(desktop, req):
    answer = {"ok": True}
    doc = load(desktop, req["path"])
    try:
        if req.get("op") == "load":
            answer["title"] = doc.getDocumentProperties().Title
        if req.get("op") == "inspect":
            answer["contentcontrols"] = contentcontrols(doc)
            answer["charts"] = charts(doc)
            answer["docprops"] = docprops(doc)
            answer["trackchanges"] = trackchanges(doc)
            answer["slides"] = slides(doc)
    finally:
        try:
            doc.close(True)
        except Exception:
            pass
    return answer


def stop_office(office, desktop, profile):
    """Terminates the soffice start_office started and removes its profile."""
    try:
        desktop.terminate()
    except Exception:
        pass
    try:
        office.wait(timeout=20)
    except subprocess.TimeoutExpired:
        office.kill()
        office.wait()
    subprocess.run(["rm", "-rf", profile])


def main():
    office, _, desktop, profile = start_office()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("op") == "quit":
            break
        for attempt in (1, 2):
            try:
                answer = answer_for(desktop, req)
                break
            except Exception as e:
                answer = {"ok": False, "error": "%s: %s" % (type(e).__name__, getattr(e, "Message", None) or str(e)), "trace": traceback.format_exc(limit=3)}
                # soffice died under us (a crash on some file): start a new one and ask once more
                if attempt == 1 and ("Disposed" in type(e).__name__ or office.poll() is not None):
                    stop_office(office, desktop, profile)
                    office, _, desktop, profile = start_office()
                    continue
                break
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    stop_office(office, desktop, profile)


if __name__ == "__main__":
    main()
