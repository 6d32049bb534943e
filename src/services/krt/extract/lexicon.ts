// Names the text extractor recognises without a vendor or identifier next to them: software (with the function
// used to find alternatives), cell lines, and model-organism strain backgrounds.

export interface SoftwareEntry {
  name: string;
  /** Written forms, matched case-insensitively at word boundaries. */
  pattern: RegExp;
  /** What it is for; alternatives share a function. */
  fn: string;
  /** Lower-case fragments of which every match contains one (a cheap test before the pattern). */
  needles: string[];
}

// Fragments for names whose pattern also matches other spellings ("Prism 9" for GraphPad Prism).
const NEEDLES: Record<string, string[]> = {
  'GraphPad Prism': ['prism', 'graphpad', 'graph pad'], 'UCSF Chimera': ['chimera'], IGV: ['igv', 'integrative genomics'],
  'scikit-learn': ['scikit', 'sklearn'], Bowtie2: ['bowtie'], Kraken2: ['kraken'], MACS2: ['macs'], pCLAMP: ['clamp'],
  'Adobe Illustrator': ['illustrator'], 'Adobe Photoshop': ['photoshop'], OriginPro: ['origin'], FACSDiva: ['facs'],
  SPSS: ['spss'], 'Cell Ranger': ['ranger'], 'FCS Express': ['fcs express'], 'Clustal Omega': ['clustal'],
  'Micro-Manager': ['manager'], 'NIS-Elements': ['elements'], 'Trim Galore': ['galore'], Excel: ['excel'],
};

const sw = (name: string, fn: string, pattern?: RegExp): SoftwareEntry => ({
  name, fn,
  pattern: pattern ?? new RegExp(`(?<![\\w-])${name.replace(/[.+*?^$()[\]{}|\\]/g, '\\$&')}(?![\\w-])`, 'i'),
  needles: NEEDLES[name] ?? [name.toLowerCase().split(/[\s-]/)[0]],
});

export const SOFTWARE: readonly SoftwareEntry[] = [
  sw('ImageJ', 'image analysis'), sw('Fiji', 'image analysis', /\bfiji\b(?!\s+island)/i), sw('CellProfiler', 'image analysis'),
  sw('Imaris', 'image analysis'), sw('napari', 'image analysis'), sw('QuPath', 'image analysis'), sw('Ilastik', 'image analysis'),
  sw('Cellpose', 'image segmentation'), sw('StarDist', 'image segmentation'), sw('ZEN', 'microscope acquisition', /\bZEN(\s+(blue|black|lite))?\b/),
  sw('NIS-Elements', 'microscope acquisition', /\bNIS[\s-]?Elements\b/i), sw('MetaMorph', 'microscope acquisition'), sw('Micro-Manager', 'microscope acquisition', /\bmicro-?manager\b/i),
  sw('LAS X', 'microscope acquisition', /\bLAS\s?X\b/), sw('Volocity', 'image analysis'), sw('Arivis', 'image analysis'),
  sw('GraphPad Prism', 'statistics', /\b(graph\s?pad\s+)?prism\b(?=\s*(\(|v|version|\d|software|\)|,|;|\.))|\bgraphpad\b/i),
  sw('R', 'statistics', /(?<![\w-])R(?=\s+(\(|v\d|version|software|statistical|package|programming|environment|project))|\bR\s+(?=\d\.\d)/),
  sw('RStudio', 'statistics'), sw('SPSS', 'statistics', /\b(IBM\s+)?SPSS\b/), sw('Stata', 'statistics'), sw('SAS', 'statistics', /\bSAS\b(?=\s*(\(|v|version|\d|software|institute))/),
  sw('JMP', 'statistics', /\bJMP\b/), sw('OriginPro', 'statistics', /\borigin\s?(pro|lab)\b/i), sw('MATLAB', 'programming'), sw('Python', 'programming'),
  sw('Julia', 'programming', /\bJulia\b(?=\s*(\(|v|version|\d|language))/), sw('Excel', 'spreadsheet', /\b(microsoft\s+)?excel\b/i),
  sw('FlowJo', 'flow cytometry analysis'), sw('FCS Express', 'flow cytometry analysis'), sw('FACSDiva', 'flow cytometry acquisition', /\bFACS\s?Diva\b/i),
  sw('Cytobank', 'flow cytometry analysis'), sw('Kaluza', 'flow cytometry analysis'),
  sw('STAR', 'read alignment', /\bSTAR\b(?=\s*(\(|v\d|version|aligner|alignment|\d\.\d|\[))/), sw('HISAT2', 'read alignment'), sw('Bowtie2', 'read alignment', /\bbowtie\s?2\b/i),
  sw('Bowtie', 'read alignment', /\bbowtie\b(?!\s?2)/i), sw('BWA', 'read alignment', /\bBWA(-MEM\d?)?\b/), sw('minimap2', 'read alignment'), sw('TopHat', 'read alignment', /\btophat2?\b/i),
  sw('Salmon', 'transcript quantification', /\bsalmon\b(?=\s*(\(|v|version|\d|quant|was|to))/i), sw('kallisto', 'transcript quantification'),
  sw('featureCounts', 'read counting'), sw('HTSeq', 'read counting', /\bhtseq(-count)?\b/i), sw('RSEM', 'transcript quantification'),
  sw('DESeq2', 'differential expression'), sw('edgeR', 'differential expression'), sw('limma', 'differential expression'),
  sw('Seurat', 'single-cell analysis'), sw('Scanpy', 'single-cell analysis'), sw('Cell Ranger', 'single-cell processing', /\bcell\s?ranger\b/i),
  sw('Monocle', 'single-cell trajectory', /\bmonocle\s?\d?\b/i), sw('scVelo', 'single-cell trajectory'), sw('Harmony', 'single-cell integration', /\bharmony\b(?=\s*(\(|v|version|\d|integration|package|algorithm))/i),
  sw('CellChat', 'cell communication'), sw('SingleR', 'cell annotation'),
  sw('FastQC', 'sequencing quality control'), sw('MultiQC', 'sequencing quality control'), sw('Trimmomatic', 'read trimming'),
  sw('Cutadapt', 'read trimming'), sw('Trim Galore', 'read trimming', /\btrim[\s_]?galore!?\b/i), sw('fastp', 'read trimming'),
  sw('SAMtools', 'alignment processing'), sw('BEDTools', 'genomic intervals'), sw('Picard', 'alignment processing', /\bpicard(\s+tools)?\b/i),
  sw('GATK', 'variant calling'), sw('FreeBayes', 'variant calling'), sw('bcftools', 'variant calling'), sw('Snippy', 'variant calling'),
  sw('MACS2', 'peak calling', /\bMACS[23]?\b/), sw('HOMER', 'motif analysis', /\bHOMER\b/), sw('MEME', 'motif analysis', /\bMEME(\s+suite)?\b/),
  sw('deepTools', 'genomics visualization'), sw('IGV', 'genomics visualization', /\b(integrative\s+genomics\s+viewer|IGV)\b/),
  sw('GSEA', 'enrichment analysis'), sw('clusterProfiler', 'enrichment analysis'), sw('DAVID', 'enrichment analysis', /\bDAVID\b/),
  sw('Metascape', 'enrichment analysis'), sw('Enrichr', 'enrichment analysis'), sw('Cytoscape', 'network analysis'), sw('STRING', 'network analysis', /\bSTRING\b(?=\s*(\(|v|version|\d|database))/),
  sw('MaxQuant', 'proteomics quantification'), sw('Perseus', 'proteomics statistics'), sw('Proteome Discoverer', 'proteomics quantification'),
  sw('Skyline', 'proteomics quantification'), sw('Spectronaut', 'proteomics quantification'), sw('DIA-NN', 'proteomics quantification', /\bDIA-?NN\b/i),
  sw('FragPipe', 'proteomics quantification'), sw('MSFragger', 'proteomics quantification'),
  sw('PyMOL', 'structure visualization'), sw('ChimeraX', 'structure visualization', /\b(UCSF\s+)?chimera\s?x\b/i), sw('UCSF Chimera', 'structure visualization', /\b(UCSF\s+)?chimera\b(?!\s?x)/i),
  sw('Coot', 'model building', /\bCoot\b/), sw('Phenix', 'structure refinement', /\bPHENIX\b/i), sw('RELION', 'cryo-EM processing'), sw('cryoSPARC', 'cryo-EM processing'),
  sw('CTFFIND', 'cryo-EM processing', /\bCTFFIND\d?\b/i), sw('MotionCor2', 'cryo-EM processing'), sw('AlphaFold', 'structure prediction', /\balphafold\s?\d?\b/i),
  sw('Rosetta', 'structure modelling', /\brosetta\b(?=\s*(\(|v|version|\d|software|suite))/i), sw('GROMACS', 'molecular dynamics'), sw('AMBER', 'molecular dynamics', /\bAMBER\b/),
  sw('CHARMM', 'molecular dynamics'), sw('VMD', 'molecular dynamics', /\bVMD\b/), sw('AutoDock', 'docking', /\bautodock(\s?vina)?\b/i),
  sw('MAFFT', 'sequence alignment'), sw('MUSCLE', 'sequence alignment', /\bMUSCLE\b/), sw('Clustal Omega', 'sequence alignment', /\bclustal\s?(omega|w|x)\b/i),
  sw('BLAST', 'sequence search', /\b(BLAST[npx]?|tBLASTn)\b/), sw('HMMER', 'sequence search'), sw('IQ-TREE', 'phylogenetics', /\biq-?tree\s?\d?\b/i),
  sw('RAxML', 'phylogenetics', /\braxml(-ng)?\b/i), sw('MEGA', 'phylogenetics', /\bMEGA\s?(X|\d{1,2})\b/), sw('BEAST', 'phylogenetics', /\bBEAST\s?\d?\b/),
  sw('Nextstrain', 'phylogenetics'), sw('Pangolin', 'lineage assignment', /\bpangolin\b(?=\s*(\(|v|version|\d|tool|software|lineage))/i),
  sw('SnapGene', 'sequence design'), sw('Benchling', 'sequence design'), sw('Geneious', 'sequence design'), sw('Jalview', 'sequence alignment'),
  sw('SPAdes', 'genome assembly'), sw('Prokka', 'genome annotation'), sw('QIIME 2', 'microbiome analysis', /\bqiime\s?2?\b/i), sw('DADA2', 'microbiome analysis'),
  sw('Kraken2', 'taxonomic classification', /\bkraken\s?2?\b/i), sw('MetaPhlAn', 'taxonomic classification', /\bmetaphlan\s?\d?\b/i),
  sw('Nextflow', 'workflow management'), sw('Snakemake', 'workflow management'), sw('Galaxy', 'workflow management', /\bGalaxy\b(?=\s*(\(|v|version|\d|platform|server))/),
  sw('Suite2p', 'calcium imaging analysis'), sw('CaImAn', 'calcium imaging analysis'), sw('DeepLabCut', 'pose estimation'), sw('SLEAP', 'pose estimation'),
  sw('Kilosort', 'spike sorting', /\bkilosort\s?\d?\b/i), sw('pCLAMP', 'electrophysiology', /\bp-?clamp\s?\d*\b/i), sw('Clampfit', 'electrophysiology'),
  sw('Igor Pro', 'electrophysiology', /\bigor(\s+pro)?\b/i), sw('Spike2', 'electrophysiology'), sw('NEURON', 'neural simulation', /\bNEURON\b/),
  sw('EEGLAB', 'EEG analysis'), sw('FieldTrip', 'EEG analysis'), sw('MNE-Python', 'EEG analysis', /\bMNE(-python)?\b/i), sw('SPM', 'neuroimaging', /\bSPM\s?(8|12)\b/),
  sw('FSL', 'neuroimaging', /\bFSL\b/), sw('FreeSurfer', 'neuroimaging'), sw('AFNI', 'neuroimaging', /\bAFNI\b/), sw('fMRIPrep', 'neuroimaging'),
  sw('scikit-learn', 'machine learning', /\bscikit-?learn\b|\bsklearn\b/i), sw('PyTorch', 'machine learning'), sw('TensorFlow', 'machine learning'),
  sw('NumPy', 'programming library'), sw('SciPy', 'programming library'), sw('pandas', 'programming library', /\bpandas\b(?=\s*(\(|v|version|\d|library|package))/i),
  sw('ggplot2', 'plotting'), sw('Matplotlib', 'plotting'), sw('BioRender', 'illustration'), sw('Adobe Illustrator', 'illustration', /\b(adobe\s+)?illustrator\b/i),
  sw('Inkscape', 'illustration'), sw('Adobe Photoshop', 'image editing', /\b(adobe\s+)?photoshop\b/i),
];

const CELL_LINE_NAMES = [
  'HEK293T', 'HEK293FT', 'HEK293', 'HEK-293T', 'HEK-293', '293T', '293FT', 'Expi293F', 'Expi293', 'HeLa', 'U2OS', 'U-2 OS', 'COS-7', 'COS7',
  'Vero E6', 'Vero', 'MDCK', 'CHO-K1', 'CHO', 'Jurkat', 'THP-1', 'A549', 'HCT116', 'MCF-7', 'MCF7', 'MCF10A', 'MDA-MB-231', 'HepG2',
  'Huh-7', 'Huh7', 'Huh7.5', 'Caco-2', 'K562', 'RAW 264.7', 'RAW264.7', 'NIH 3T3', 'NIH3T3', 'IMR-90', 'RPE-1', 'hTERT-RPE1', 'HAP1',
  'Calu-3', 'SH-SY5Y', 'PC-12', 'PC12', 'Sf9', 'Sf21', 'High Five', 'S2', 'Kc167', 'BHK-21', 'HT-1080', 'HT29', 'SW480', 'LNCaP',
  'PC-3', 'DU145', 'Neuro-2a', 'N2a', 'C2C12', '3T3-L1', 'HUVEC', 'BEAS-2B', 'H1299', 'U87', 'U937', 'HL-60', 'KG-1', 'MOLM-13',
  'OCI-AML3', 'Ramos', 'Raji', 'Daudi', 'BJ', 'WI-38', 'MRC-5', 'LLC-MK2', 'A431', 'SK-N-SH', 'SK-BR-3', 'T47D', 'ZR-75-1', 'Panc-1',
  'MIA PaCa-2', 'HeLa S3', 'HEK293A', 'H9', 'H1', 'WTC-11', 'KOLF2.1J', 'BV-2', 'HMC3', 'B16-F10', 'B16F10', 'CT26', 'MC38', '4T1',
  'LLC', 'EL4', 'A20', 'P815', 'YAC-1', 'Hepa1-6', 'ID8', 'DLD-1', 'DLD1', 'RKO', 'LoVo', 'HEL', 'MEL', 'TF-1', 'Ba/F3', 'NALM6',
];
const escape = (s: string) => s.replace(/[.+*?^$()[\]{}|\\/]/g, '\\$&').replace(/\s+/g, '[\\s-]?');
/** Cell line names followed by "cells" or a cell bank number, or standing alone before "cell line". */
export const CELL_LINE = new RegExp(`(?<![\\w-])(${[...CELL_LINE_NAMES].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\w-])`, 'g');

/** Strain backgrounds of model organisms (for names and for "same background" recommendations). */
export const STRAIN_BACKGROUND = /\b(C57BL\/6[JN]?(?:J|N|NCrl|NTac|JRj)?|C57BL\/10|BALB\/c[JByN]*|DBA\/2J?|FVB(?:\/N[J]?)?|129(?:S\d|X1|P2)?(?:\/\w+)?|NOD(?:\/ShiLtJ)?|NSG|CD-?1|ICR|Swiss\s+Webster|Sprague[\s-]Dawley|Wistar|Long[\s-]Evans|Lewis|Fischer\s+344|w1118|w\[1118\]|Canton[\s-]S|Oregon[\s-]R|yw|y1\s?w1118|N2\s+Bristol|AB\b|TU\b|Tübingen|WIK|Col-0|Ler|BY4741|BY4742|W303|S288C)\b/i;
