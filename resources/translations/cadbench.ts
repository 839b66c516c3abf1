<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1">
  <context>
    <name>CadBench</name>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="229" />
      <source> (candidate in the scored pose, as drawingMatch draws it)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="561" />
      <source> (diff hidden: the Diff tab shows it again)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="236" />
      <source> (open drawing.FCStd for TechDraw's live views: it projects them again)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="456" />
      <source>(choose a candidate)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="93" />
      <source>A drawing is already being generated.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="212" />
      <source>A scoring is already running: cancel it first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="286" />
      <source>Added {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="408" />
      <source>Alignment of the candidate: </source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="666" />
      <source>Apply alignment</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="171" />
      <source>Apply alignment to candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="88" />
      <source>Author the case on the selected object</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="203" />
      <source>Authoring the automatic targets…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="156" />
      <source>Browse…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="230" />
      <source>Building the files of {} (first use)…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="268" />
      <source>Building {} cancelled.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="272" />
      <source>Building {} failed: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="107" />
      <source>Cancel</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/diff_view.py" line="88" />
      <source>Candidate (aligned mesh)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="679" />
      <source>Candidate back in its own pose.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="669" />
      <source>Candidate moved into the reference frame.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="528" />
      <source>Candidate {} loaded: press Score.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="77" />
      <source>Candidates (double-click: open and score)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="434" />
      <source>Case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="96" />
      <source>Case candidate:</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="506" />
      <source>Case folder</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="124" />
      <source>Case id</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="127" />
      <source>Case kind</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="530" />
      <source>Case {} opened: choose a candidate, then Score.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="147" />
      <source>Cases folder</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="132" />
      <source>Cases in {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="198" />
      <source>Choose the reference first (Use selection).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="93" />
      <source>Close</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="145" />
      <source>Colour the aligned candidate by its distance to the reference (colour bar)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="59" />
      <source>Common (in both)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="619" />
      <source>Computing the deviation…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="713" />
      <source>Copied {} diff files to {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="724" />
      <source>Copied {} drawing file(s)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/diff_view.py" line="97" />
      <source>Deviation from the reference</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="629" />
      <source>Deviation shown: distances within ±{} (colour bar in the 3D view, in mm)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="180" />
      <source>Diff</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="584" />
      <source>Diff shown: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/metrics/registry.py" line="104" />
      <source>Dimensional accuracy</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="74" />
      <source>Dimensions</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="174" />
      <source>Drawing cancelled.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="177" />
      <source>Drawing failed: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/metrics/registry.py" line="159" />
      <source>Drawing fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="277" />
      <source>Drawing of {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="211" />
      <source>Drawing written to {}, but not shown: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="238" />
      <source>Drawing written to {}: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="91" />
      <source>Edit a copy of the open case's dimensions</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="694" />
      <source>Export the result as JSON</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="61" />
      <source>Extra (candidate - reference)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/metrics/registry.py" line="132" />
      <source>Feature fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="703" />
      <source>Folder for the diff files (STEP and GLB)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="718" />
      <source>Folder for the drawing files</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="145" />
      <source>Generating the drawing of {}…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="126" />
      <source>Group</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="313" />
      <source>Imported {} dimension(s) from {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="489" />
      <source>Live figures failed: </source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="464" />
      <source>Live figures paused: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="103" />
      <source>Load a model first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="61" />
      <source>Load a reference and a candidate, or open a case.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/session.py" line="143" />
      <source>Load candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/session.py" line="142" />
      <source>Load reference</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="469" />
      <source>Measuring the reference…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="60" />
      <source>Missing (reference - candidate)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="306" />
      <source>No TechDraw page in the active document.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="663" />
      <source>No candidate alignment to apply: score first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="135" />
      <source>No cases in this folder.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="325" />
      <source>No model files in {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="85" />
      <source>No reference yet.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="289" />
      <source>Nothing a drawing states for {}: pick an edge, a round face, two parallel or angled planes, or two vertices.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="91" />
      <source>Open and score candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="89" />
      <source>Open case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="57" />
      <source>Other folder…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="427" />
      <source>Part of the result could not be shown: </source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="294" />
      <source>Pick edges or faces of the reference in the 3D view first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="501" />
      <source>Reading {} cancelled.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="492" />
      <source>Reading {}…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/diff_view.py" line="91" />
      <source>Reference (mesh)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="534" />
      <source>Reference {} loaded.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="244" />
      <source>Reference: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="158" />
      <source>Save case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="526" />
      <source>Saved {}. Score a candidate with: cadbench score --case {} CANDIDATE</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="612" />
      <source>Score first: the deviation needs the scored alignment.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="570" />
      <source>Score first: the diff comes from the last scoring.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="345" />
      <source>Scored {} of {} candidates; {} passed (formal).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="336" />
      <source>Scoring {} candidates…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="308" />
      <source>Scoring…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="229" />
      <source>Select one solid object to author the case on.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="563" />
      <source>Selected {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="135" />
      <source>Shape</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/metrics/registry.py" line="96" />
      <source>Shape fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation.py" line="153" />
      <source>Show deviation</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="143" />
      <source>Show deviation (Inspection)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation.py" line="110" />
      <source>Show deviation cancelled.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation.py" line="118" />
      <source>Show deviation dropped: the candidate or the result changed meanwhile.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation.py" line="114" />
      <source>Show deviation failed: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="140" />
      <source>Show diff</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="93" />
      <source>Start from automatic targets</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="90" />
      <source>Start from open case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/dependency_check.py" line="85" />
      <source>The Python that cadbench scores with lacks some packages:</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="523" />
      <source>The candidate cannot be shown ({}); Score reports it as not delivered.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation.py" line="171" />
      <source>The deviation is already being computed.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="95" />
      <source>The targets `cadbench case new` authors for the reference, each bound to its faces</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/metrics/registry.py" line="143" />
      <source>Thread fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="125" />
      <source>Title</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="173" />
      <source>Undo alignment</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="87" />
      <source>Use selection</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="96" />
      <source>Wait for the running action, or cancel it.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="698" />
      <source>Wrote {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/job.py" line="45" />
      <source>aligning the candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="117" />
      <source>anchoring</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="244" />
      <source>building {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="251" />
      <source>building {}: {} of {} files</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="585" />
      <source>cadbench authoring</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="51" />
      <source>cadbench cases</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/diff_view.py" line="44" />
      <source>cadbench diff</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="754" />
      <source>cadbench results</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/dependency_check.py" line="83" />
      <source>cadbench: Python packages missing</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="124" />
      <source>cancelling</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="155" />
      <source>case folder (default: cases/&lt;id&gt;)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="34" />
      <source>checking the FreeCAD kernel</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation_child.py" line="106" />
      <source>done</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="118" />
      <source>independent</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation_child.py" line="128" />
      <source>measuring the distances (Inspection)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation_child.py" line="93" />
      <source>meshing the candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation_child.py" line="95" />
      <source>meshing the reference</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="90" />
      <source>n/a: drawing generation is not available in this version.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="406" />
      <source>not in this result (not computed or not applicable)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="45" />
      <source>placing the dimensions and writing the files</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="39" />
      <source>projecting the views (hidden-line removal)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/job.py" line="44" />
      <source>reading the candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="48" />
      <source>reading the drawing back</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="35" />
      <source>reading the model</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation_child.py" line="86" />
      <source>reading the models</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/job.py" line="43" />
      <source>reading the reference</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/deviation.py" line="74" />
      <source>starting</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="417" />
      <source>{!r} is not a number</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="223" />
      <source>{} automatic targets.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="232" />
      <source>{} of {} targets displayed</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="68" />
      <source>{} taken from the selection: {}</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ApplyAlignment</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="152" />
      <source>Apply / undo alignment</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="153" />
      <source>Move the candidate into the reference frame by its scored alignment, or back</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_AuthorCase</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="194" />
      <source>Author a reference case: pick target dimensions on the reference and save case.yaml</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="193" />
      <source>Author case…</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_GenerateDrawing</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="172" />
      <source>Generate drawing</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="173" />
      <source>Make a TechDraw drawing of the candidate (or reference) as the drawing metric does</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_LoadCandidate</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="97" />
      <source>Load candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="98" />
      <source>Load the candidate model to score (FCStd, STEP, BREP, STL) or take the selected object</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_LoadReference</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="87" />
      <source>Load reference</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="88" />
      <source>Load the reference model (FCStd, STEP, BREP, STL) or take the selected object</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_OpenCase</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="107" />
      <source>Browse the bundled cases (or any case folder) and open one with its candidates</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="106" />
      <source>Open case…</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_Score</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="120" />
      <source>Score</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="121" />
      <source>Score the candidate against the reference or case (runs in the background)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ScoreFolder</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="208" />
      <source>Score every model in a folder against the current reference or case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="207" />
      <source>Score folder…</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ShowDiff</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="138" />
      <source>Show common (grey), missing (red) and extra (blue) material in the reference frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="137" />
      <source>Show diff</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ShowPanel</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="228" />
      <source>Results panel</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="229" />
      <source>Show the cadbench results panel</source>
      <translation type="unfinished" />
    </message>
  </context>
</TS>
