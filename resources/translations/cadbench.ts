<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1">
  <context>
    <name>CadBench</name>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="435" />
      <source> (diff hidden: the Diff tab shows it again)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="381" />
      <source>(choose a candidate)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="43" />
      <source>A drawing is already being generated.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="179" />
      <source>A scoring is already running: cancel it first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="240" />
      <source>Added {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="337" />
      <source>Alignment of the candidate: </source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="142" />
      <source>Apply alignment to candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="82" />
      <source>Author the case on the selected object</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="144" />
      <source>Browse…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="196" />
      <source>Building the files of {} (first use)…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="207" />
      <source>Building {} failed: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="88" />
      <source>Cancel</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="495" />
      <source>Candidate back in its own pose.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="486" />
      <source>Candidate moved into the reference frame.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="412" />
      <source>Candidate {} loaded: press Score.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="74" />
      <source>Candidates (double-click: open and score)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="359" />
      <source>Case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="73" />
      <source>Case candidate:</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="465" />
      <source>Case folder</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="112" />
      <source>Case id</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="115" />
      <source>Case kind</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="180" />
      <source>Case {} opened: choose a candidate, then Score.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="118" />
      <source>Cases folder</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="103" />
      <source>Cases in {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="89" />
      <source>Close</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="58" />
      <source>Common (in both)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="524" />
      <source>Copied {} diff files to {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="535" />
      <source>Copied {} drawing file(s)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="151" />
      <source>Diff</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="454" />
      <source>Diff shown: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="25" />
      <source>Dimensional accuracy</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="71" />
      <source>Dimensions</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="75" />
      <source>Drawing failed: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="28" />
      <source>Drawing fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="80" />
      <source>Drawing written to {}: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="85" />
      <source>Edit a copy of the open case's dimensions</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="505" />
      <source>Export the result as JSON</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="60" />
      <source>Extra (candidate - reference)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="26" />
      <source>Feature fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="514" />
      <source>Folder for the diff files (STEP and GLB)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="529" />
      <source>Folder for the drawing files</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="61" />
      <source>Generating the drawing of {}…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="114" />
      <source>Group</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="267" />
      <source>Imported {} dimension(s) from {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="448" />
      <source>Live figures failed: </source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="418" />
      <source>Live figures paused: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="50" />
      <source>Load a model first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="38" />
      <source>Load a reference and a candidate, or open a case.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="428" />
      <source>Measuring the reference…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="59" />
      <source>Missing (reference - candidate)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="260" />
      <source>No TechDraw page in the active document.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="482" />
      <source>No candidate alignment to apply: score first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="106" />
      <source>No cases in this folder.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="254" />
      <source>No model files in {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="79" />
      <source>No reference yet.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="243" />
      <source>Nothing a drawing states for {}: pick an edge, a round face, two parallel or angled planes, or two vertices.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="87" />
      <source>Open and score candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="85" />
      <source>Open case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="54" />
      <source>Other folder…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="353" />
      <source>Part of the result could not be shown: </source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="248" />
      <source>Pick edges or faces of the reference in the 3D view first.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="202" />
      <source>Reference: {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="146" />
      <source>Save case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="487" />
      <source>Saved {}. Score a candidate with: cadbench score --case {} CANDIDATE</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="443" />
      <source>Score first: the diff comes from the last scoring.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="274" />
      <source>Scored {} of {} candidates; {} passed (formal).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="247" />
      <source>Scored: case verdict {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="265" />
      <source>Scoring {} candidates…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="235" />
      <source>Scoring…</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="187" />
      <source>Select one solid object to author the case on.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="436" />
      <source>Selected {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="112" />
      <source>Shape</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="24" />
      <source>Shape fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="117" />
      <source>Show diff</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="84" />
      <source>Start from open case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="402" />
      <source>The candidate cannot be shown ({}); Score reports it as not delivered.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel_model.py" line="27" />
      <source>Thread fidelity</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="113" />
      <source>Title</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="144" />
      <source>Undo alignment</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="81" />
      <source>Use selection</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="509" />
      <source>Wrote {}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="105" />
      <source>anchoring</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="532" />
      <source>cadbench authoring</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/case_browser.py" line="48" />
      <source>cadbench cases</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/diff_view.py" line="27" />
      <source>cadbench diff</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="568" />
      <source>cadbench results</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="222" />
      <source>cancelling</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="143" />
      <source>case folder (default: cases/&lt;id&gt;)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="106" />
      <source>independent</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/drawing.py" line="40" />
      <source>n/a: drawing generation is not available in this version.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="335" />
      <source>not in this result (not computed or not applicable)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/panel.py" line="188" />
      <source>starting</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/authoring.py" line="371" />
      <source>{!r} is not a number</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="69" />
      <source>{} taken from the selection: {}</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ApplyAlignment</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="156" />
      <source>Apply / undo alignment</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="157" />
      <source>Move the candidate into the reference frame by its scored alignment, or back</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_AuthorCase</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="198" />
      <source>Author a reference case: pick target dimensions on the reference and save case.yaml</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="197" />
      <source>Author case…</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_GenerateDrawing</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="176" />
      <source>Generate drawing</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="177" />
      <source>Make a TechDraw drawing of the candidate (or reference) as the drawing metric does</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_LoadCandidate</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="101" />
      <source>Load candidate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="102" />
      <source>Load the candidate model to score (FCStd, STEP, BREP, STL) or take the selected object</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_LoadReference</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="91" />
      <source>Load reference</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="92" />
      <source>Load the reference model (FCStd, STEP, BREP, STL) or take the selected object</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_OpenCase</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="111" />
      <source>Browse the bundled cases (or any case folder) and open one with its candidates</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="110" />
      <source>Open case…</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_Score</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="124" />
      <source>Score</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="125" />
      <source>Score the candidate against the reference or case (runs in the background)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ScoreFolder</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="212" />
      <source>Score every model in a folder against the current reference or case</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="211" />
      <source>Score folder…</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ShowDiff</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="142" />
      <source>Show common (grey), missing (red) and extra (blue) material in the reference frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="141" />
      <source>Show diff</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>CadBench_ShowPanel</name>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="232" />
      <source>Results panel</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../cadbench_wb/gui/commands.py" line="233" />
      <source>Show the cadbench results panel</source>
      <translation type="unfinished" />
    </message>
  </context>
</TS>
